// Values a host should not pass, for the tests of what refuses them: a class whose getter throws, and a proxy whose
// `get` trap throws for every key (while listing none).

/** A class whose `criteria` getter throws when read. */
export class ThrowingGoal {
  get criteria(): never {
    throw new Error('class getter');
  }
}

/** A proxy of `{}` whose `get` trap throws for every key. */
export function trapProxy(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('get trap');
      },
    },
  );
}
