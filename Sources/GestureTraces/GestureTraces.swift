// GestureTraces: see the module's files.
