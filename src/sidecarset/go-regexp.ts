// Go (RE2) regular expressions as JavaScript ones, for the SidecarSet fields that hold one (the
// patch-metadata whitelist, resourcesPolicy.targetContainersNameRegex). The common syntax is
// shared; leading inline flags like `(?i)` become JS flags. Pure.

/** A Go regexp as a JS RegExp; throws SyntaxError when JavaScript cannot compile it. */
export function goRegExp(expr: string): RegExp {
  const flags = /^\(\?([ims]+)\)/.exec(expr);
  return flags ? new RegExp(expr.slice(flags[0].length), flags[1]) : new RegExp(expr);
}
