/**
 * Whether a floor answers exactly what the product answers (issue 48 §1): the same route asked of
 * both as each user in turn, the bodies compared byte for byte. A floor whose body differs measures
 * other work, so its pair is not valid.
 */
export interface BodyDifference {
  user: number;
  status: [product: number, floor: number];
  /** Where the bodies part, with a little of each from there. */
  at: number;
  product: string;
  floor: string;
}

export interface SameBodies {
  path: string;
  checked: number;
  differences: BodyDifference[];
}

async function body(url: string, token: string) {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  return { status: res.status, text: await res.text() };
}

export async function sameBodies(
  productURL: string,
  floorURL: string,
  path: string,
  tokens: readonly string[],
): Promise<SameBodies> {
  const differences: BodyDifference[] = [];
  for (const [user, token] of tokens.entries()) {
    const [p, f] = await Promise.all([body(productURL + path, token), body(floorURL + path, token)]);
    if (p.status === 200 && f.status === 200 && p.text === f.text) continue;
    let at = 0;
    while (at < p.text.length && p.text[at] === f.text[at]) at++;
    differences.push({
      user,
      status: [p.status, f.status],
      at,
      product: p.text.slice(Math.max(0, at - 40), at + 80),
      floor: f.text.slice(Math.max(0, at - 40), at + 80),
    });
  }
  return { path, checked: tokens.length, differences };
}

/** "200 of 200 identical" or the first difference. */
export function sameBodiesNote(s: SameBodies): string {
  const d = s.differences[0];
  if (!d) return `${s.path}: floor body byte-identical for ${s.checked} of ${s.checked} users`;
  return (
    `${s.path}: ${s.differences.length} of ${s.checked} users differ; user ${d.user} ` +
    `(status ${d.status.join(' vs ')}) at byte ${d.at}: product …${d.product}… floor …${d.floor}…`
  );
}
