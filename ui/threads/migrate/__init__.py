"""The Threads page's Migrate section: the plan, its preview, one thread before and after, Apply."""
