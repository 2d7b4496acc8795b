import { describe, expect, it } from 'vitest';
import { tickLabels } from '../../web/worlds/timeAxis';

describe('chart time axis (web/worlds/timeAxis.ts)', () => {
  it('distinct labels at every spacing, tenths only below a second, the decimal mark of the language', () => {
    expect(tickLabels([0, 0.2, 0.4, 0.6], 'en')).toEqual(['0:00.0', '0:00.2', '0:00.4', '0:00.6']);
    expect(tickLabels([0, 0.2, 0.4], 'pt-BR')).toEqual(['0:00,0', '0:00,2', '0:00,4']);
    expect(tickLabels([0, 10, 20], 'en')).toEqual(['0:00', '0:10', '0:20']);
    expect(tickLabels([0, 3600, 7200], 'en')).toEqual(['0:00', '1:00:00', '2:00:00']);
    const labels = tickLabels([0, 0.5, 1, 1.5, 2], 'en');
    expect(new Set(labels).size).toBe(labels.length);
  });
});
