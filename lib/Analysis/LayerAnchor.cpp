// Keeps the Analysis layer non-empty until it has sources of its own.
