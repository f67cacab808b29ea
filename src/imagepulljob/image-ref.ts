// Whether an image reference parses, as distribution's reference.ParseNormalizedNamed (which
// OpenKruise's NormalizeImageRef calls) decides it: `[domain[:port]/]path[:tag][@digest]`, path
// components lowercase. Returns its error text, or undefined. Pure.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`);
const NAME_MAX = 255;

export function imageRefError(image: string): string | undefined {
  if (!REFERENCE.test(image)) {
    const lower = image.toLowerCase();
    return lower !== image && REFERENCE.test(lower) ? 'invalid reference format: repository name (library/' + image + ') must be lowercase' : 'invalid reference format';
  }
  const name = image.split('@')[0]!.replace(/:[\w][\w.-]{0,127}$/, '');
  if (name.length > NAME_MAX) return 'repository name must not be more than 255 characters';
  return undefined;
}
