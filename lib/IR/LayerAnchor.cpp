// Keeps the IR layer non-empty until it has sources of its own.
