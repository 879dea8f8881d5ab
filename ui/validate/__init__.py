"""The Validate page's own pieces: the one form engine (any model, the seed order included)."""
