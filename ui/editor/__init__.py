"""The JSON editor every page edits a payload in: the code editor and its Format / Reset shell."""
