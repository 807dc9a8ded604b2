"""The AI's thinking: the worker pool and its gate, anytime search, AI turns, hints."""
