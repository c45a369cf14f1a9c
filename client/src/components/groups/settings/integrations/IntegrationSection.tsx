import { useId, type ReactNode } from 'react';

/** One kind of integration: a region named by its heading. */
export function IntegrationSection(props: { title: string; heading: 'h3' | 'h4'; children: ReactNode }) {
  const titleId = useId();
  const Heading = props.heading;
  return (
    <section className="integration" aria-labelledby={titleId}>
      <Heading id={titleId}>{props.title}</Heading>
      {props.children}
    </section>
  );
}
