// TouchInput: see the module's files.
