/// <reference types="vite/client" />

declare module 'virtual:loopscope-statecharts' {
  import type { SerializedLayout } from './statechart/layout';
  /** ELK layouts of every registered machine, by machine id (web/statechart/vite-plugin.ts). */
  const layouts: Record<string, SerializedLayout>;
  export default layouts;
}
