// Resolve hook registered by sdk-hook.mjs: a bare `@modelcontextprotocol/sdk...` import is resolved as if it were
// made from this folder (servers3/node_modules); every other specifier as usual.
const here = new URL('./package.json', import.meta.url).href;

export async function resolve(specifier, context, next) {
    if (specifier.startsWith('@modelcontextprotocol/sdk')) return next(specifier, { ...context, parentURL: here });
    return next(specifier, context);
}
