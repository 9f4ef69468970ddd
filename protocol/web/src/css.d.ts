// A style sheet imported by a script comes as its text (build.mjs's
// loader), for a constructed style sheet: the page's CSP allows no inline
// style element.
declare module "*.css" {
  const text: string;
  export default text;
}
