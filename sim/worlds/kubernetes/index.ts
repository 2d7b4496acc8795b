export * from './world';
export * from './model';
export * from './summary';
export { storeKey } from './store';
