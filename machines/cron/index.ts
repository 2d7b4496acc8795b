export * from './schedule';
export * from './machine';
