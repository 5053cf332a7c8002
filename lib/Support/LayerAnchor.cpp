// Keeps the Support layer non-empty until it has sources of its own.
