/** A definition list of a job's facts (label, value); values may be long ids, so they wrap. */
export function JobFacts(props: { facts: readonly (readonly [string, string])[] }) {
  return (
    <dl className="facts">
      {props.facts.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
