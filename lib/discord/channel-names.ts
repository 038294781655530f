// Discord's normalisation of text-like channel names: the client and the API both lowercase them, turn whitespace into
// dashes and collapse runs of dashes ("Hello  World" → "hello-world", "a - b" → "a-b"). Voice, stage and category
// names keep their case and spaces.
const NORMALISED_TYPES: readonly number[] = [0, 5, 15, 16]; // text, announcement, forum, media

/** Whether Discord stores this type's names lowercased and dashed. */
export function normalisesChannelName(type: number): boolean {
  return NORMALISED_TYPES.includes(type);
}

export function normaliseChannelName(type: number, name: string): string {
  if (!normalisesChannelName(type)) return name;
  return name.trim().toLowerCase().replace(/\s+/g, "-").replace(/-{2,}/g, "-");
}
