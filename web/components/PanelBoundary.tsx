import type { ReactNode } from 'react';
import { Component } from 'react';
import { useT } from '../i18n/i18n';

interface Props {
  name: string;
  resetKey?: unknown;
  /** What to show instead of the panel; the default names the panel and the error. */
  fallback?: (error: string) => ReactNode;
  children: ReactNode;
}
interface State {
  error: string | null;
  resetKey: unknown;
}

/** One panel that throws shows what went wrong in its place; the rest of the lab keeps working.
 * A new resetKey (the next frame, another run) retries. */
export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(e: unknown): Partial<State> {
    return { error: e instanceof Error ? e.message : String(e) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return this.props.fallback ? this.props.fallback(error) : <PanelError name={this.props.name} error={error} />;
  }
}

function PanelError({ name, error }: { name: string; error: string }) {
  const t = useT();
  return (
    <pre className="input-error" data-testid="panel-error" data-panel={name}>
      {t('panelFailed')} ({name}): {error}
    </pre>
  );
}
