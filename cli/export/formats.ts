// What `loopscope export` can write (the option's help and its check share the list).
export const EXPORT_FORMATS = ['html', 'svg', 'png'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
