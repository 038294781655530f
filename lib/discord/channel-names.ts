// Discord's normalisation of text-like channel names: the client and the API both lowercase them and turn runs of
// whitespace into one dash ("Hello World" → "hello-world"). Voice, stage, category and media names keep their case.
const NORMALISED_TYPES: readonly number[] = [0, 5, 15]; // text, announcement, forum

export function normaliseChannelName(type: number, name: string): string {
  if (!NORMALISED_TYPES.includes(type)) return name;
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}
