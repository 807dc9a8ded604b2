"""What tests, benchmarks and scripts share: the AI arena and the browser driver."""
