"""Where a store's rows and threads come from, behind one protocol (`protocol.Backend`)."""
