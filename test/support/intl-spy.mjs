// Preloaded (node --import) into a bot process: every entry point that reaches ICU (Intl's constructors and
// functions, the toLocale* methods, localeCompare) writes one stderr line `intl-spy: <name>` and its stack on its
// first call, so a test can read what touched ICU and from where. Behaviour is unchanged: each wraps the original.
const seen = new Set();
function report(name) {
  if (seen.has(name)) return;
  seen.add(name);
  const stack = (new Error().stack ?? '').split('\n').slice(3, 12).join('\n');
  process.stderr.write(`intl-spy: ${name}\n${stack}\nintl-spy-end\n`);
}
function wrapMethod(owner, key, name) {
  const original = owner[key];
  if (typeof original !== 'function') return;
  Object.defineProperty(owner, key, {
    configurable: true,
    writable: true,
    value: {
      [key](...args) {
        report(name);
        return Reflect.apply(original, this, args);
      },
    }[key],
  });
}
function wrapConstructor(key) {
  const Original = Intl[key];
  if (typeof Original !== 'function') return;
  const Spied = new Proxy(Original, {
    construct(target, args, newTarget) {
      report(`Intl.${key}`);
      return Reflect.construct(target, args, newTarget === Spied ? target : newTarget);
    },
    apply(target, self, args) {
      report(`Intl.${key}`);
      return Reflect.apply(target, self, args);
    },
  });
  Object.defineProperty(Intl, key, { configurable: true, writable: true, value: Spied });
}
for (const key of [
  'DateTimeFormat',
  'NumberFormat',
  'Collator',
  'PluralRules',
  'Segmenter',
  'RelativeTimeFormat',
  'ListFormat',
  'DisplayNames',
  'Locale',
  'DurationFormat',
]) {
  wrapConstructor(key);
}
wrapMethod(Intl, 'supportedValuesOf', 'Intl.supportedValuesOf');
wrapMethod(Intl, 'getCanonicalLocales', 'Intl.getCanonicalLocales');
wrapMethod(Number.prototype, 'toLocaleString', 'Number.prototype.toLocaleString');
wrapMethod(BigInt.prototype, 'toLocaleString', 'BigInt.prototype.toLocaleString');
wrapMethod(Array.prototype, 'toLocaleString', 'Array.prototype.toLocaleString');
for (const key of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
  wrapMethod(Date.prototype, key, `Date.prototype.${key}`);
}
for (const key of ['localeCompare', 'toLocaleUpperCase', 'toLocaleLowerCase']) {
  wrapMethod(String.prototype, key, `String.prototype.${key}`);
}
process.stderr.write('intl-spy-ready\n');
