export * from './schedule';
export * from './machine';
export * from './kubernetes-cronjob';
export * from './anacron';
export * from './cronjob-schedule';
