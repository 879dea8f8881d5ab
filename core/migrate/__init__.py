"""Migrate stored threads when the model changes: propose a plan, preview, export, apply."""
