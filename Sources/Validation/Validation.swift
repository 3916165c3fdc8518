// Validation: see the module's files.
