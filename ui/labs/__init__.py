"""The three labs' own pieces: probe results, the retry and tool-parameter link state."""
