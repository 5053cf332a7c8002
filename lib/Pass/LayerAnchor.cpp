// Keeps the Pass layer non-empty until it has sources of its own.
