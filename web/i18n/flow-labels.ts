import type { ReactFlowProps } from '@xyflow/react';
import type { Language } from './messages';

type FlowLabels = NonNullable<ReactFlowProps['ariaLabelConfig']>;

/** @xyflow/react's own words (the zoom buttons' titles, screen-reader descriptions) in Portuguese;
 * in English it keeps its defaults. Nodes here are neither selectable nor movable. */
const PT: FlowLabels = {
  'node.a11yDescription.default': 'Estado do diagrama.',
  'node.a11yDescription.keyboardDisabled': 'Estado do diagrama.',
  'node.a11yDescription.ariaLiveMessage': ({ direction, x, y }) => `Estado movido para ${direction}: x ${x}, y ${y}`,
  'edge.a11yDescription.default': 'Transição do diagrama.',
  'controls.ariaLabel': 'Controles do diagrama',
  'controls.zoomIn.ariaLabel': 'Aproximar',
  'controls.zoomOut.ariaLabel': 'Afastar',
  'controls.fitView.ariaLabel': 'Ajustar à tela',
  'controls.interactive.ariaLabel': 'Alternar interatividade',
  'minimap.ariaLabel': 'Minimapa',
  'handle.ariaLabel': 'Conector',
};

export const flowLabels = (lang: Language): FlowLabels => (lang === 'pt-BR' ? PT : {});
