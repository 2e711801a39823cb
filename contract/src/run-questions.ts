/**
 * A run's question that asks for an approval names the answer that gives it, as the catalogue's
 * approval step does: 'Do you approve this plan? Answer "yes" or describe the changes you want.'
 * That answer is what the inbox's one-click Approve sends (the server applies it; the web offers it).
 */
export function approvingAnswerOf(prompt: string | null | undefined): string | null {
  if (!prompt || !/\bapprov/i.test(prompt)) return null;
  const m = /\b(?:answer|reply|type|say)\s+(?:with\s+)?["“']([^"”']{1,40})["”']/i.exec(prompt);
  const answer = m?.[1].trim();
  return answer ? answer : null;
}
