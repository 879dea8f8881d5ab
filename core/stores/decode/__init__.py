"""Stored values decoded strictly and checked: serializer, allow-list, rows, budget, states."""
