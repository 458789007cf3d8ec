// The one sentence every capability uses for a host call that threw or timed out.
/** Why a host call failed, as a sentence about `who` (`the code critic`): `<who> threw: <message>`, or `<who> timed out after N ms`. @internal */
export function failureSentence(who: string, failed: { readonly error: string; readonly timedOut?: boolean }): string {
  return `${who} ${failed.timedOut === true ? '' : 'threw: '}${failed.error}`;
}
