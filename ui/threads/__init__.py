"""The Threads page's pieces: the store picker, the thread list, one thread, audit, unbrick;
its Migrate section in migrate/."""
