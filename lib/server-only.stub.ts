// Stands in for the "server-only" marker where no bundler resolves the react-server condition (vitest).
export {};
