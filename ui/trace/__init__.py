"""The Trace page's own pieces: forks and the share link of a trace."""
