// The ARIA wiring of a text box that drives a listbox of suggestions (the
// quick switcher, message search): one place for the attributes that tie the
// box to its list and to the option the arrow keys are on.

/** An option's element id in the listbox `listId`. */
export const optionIdOf = (listId: string, index: number): string => `${listId}-${index}`;

/** The box's attributes, with `count` options shown and the `active` one highlighted. */
export function comboboxAttributes(listId: string, count: number, active: number) {
  return {
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': count > 0,
    'aria-controls': listId,
    'aria-activedescendant': count > 0 ? optionIdOf(listId, active) : undefined,
    autoComplete: 'off',
    spellCheck: false,
    maxLength: 100,
  } as const;
}
