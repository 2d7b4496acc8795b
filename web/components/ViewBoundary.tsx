import type { ReactNode } from 'react';
import { Component } from 'react';
import { useT } from '../i18n/i18n';

interface Props { loop: string; index: number; children: ReactNode }
interface State { error: string | null; index: number }

/**
 * A loop's view that throws on a frame (a loaded trace whose world has another shape than the
 * loop's summary) says which frame and why instead of leaving a blank page; the next frame retries.
 */
export class ViewBoundary extends Component<Props, State> {
  override state: State = { error: null, index: this.props.index };

  static getDerivedStateFromError(e: unknown): Partial<State> {
    return { error: e instanceof Error ? e.message : String(e) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.index === state.index ? null : { error: null, index: props.index };
  }

  override render(): ReactNode {
    const { error } = this.state;
    return error === null ? this.props.children : <ViewError loop={this.props.loop} index={this.props.index} error={error} />;
  }
}

function ViewError({ loop, index, error }: { loop: string; index: number; error: string }) {
  const t = useT();
  return <pre className="input-error" data-testid="view-error">frames.{index}.world: {t('viewCannotDraw')} {loop} ({error})</pre>;
}
