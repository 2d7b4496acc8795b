// Public surface of the Incus client.
export * from './types';
export * from './errors';
export * from './client';
export * from './connect';
