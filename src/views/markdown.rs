//! Placeholder until the markdown converter lands (llms-full.txt).
