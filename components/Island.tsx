import type { FunctionComponent } from "preact";
import { type IslandName, type IslandProps, ISLANDS } from "../islands/mod.ts";

/**
 * Renders an island on the server inside the element `islands/client.ts` hydrates: the
 * component's HTML works before the script loads, and its props travel as JSON in
 * `data-props`, so they must be serialisable and carry nothing secret.
 */
export function Island<N extends IslandName>(props: { name: N; props: IslandProps<N> }) {
  const Component = ISLANDS[props.name] as FunctionComponent<IslandProps<N>>;
  return (
    <div class="island" data-island={props.name} data-props={JSON.stringify(props.props)}>
      <Component {...props.props} />
    </div>
  );
}
