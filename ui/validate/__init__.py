"""The Validate page's own pieces: the model-driven form and the order form."""
