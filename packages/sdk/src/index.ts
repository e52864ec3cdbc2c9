// This package is built in a later issue; it has no public API yet.
export {};
