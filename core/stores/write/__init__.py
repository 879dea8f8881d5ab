"""Writes to a store: an unbrick fork, through LangGraph's saver or a server's API."""
