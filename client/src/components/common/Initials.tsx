/**
 * Initials standing for a name where there is no picture (an avatar, a group
 * without an icon). They are drawn by CSS from `data-initials`, not written as
 * text: they are a picture of the name, so a button named by the full name
 * shows no other words (WCAG 2.5.3, label in name) and the name is read once.
 */
export function Initials(props: { text: string }) {
  return <span className="initials" data-initials={props.text} aria-hidden="true" />;
}
