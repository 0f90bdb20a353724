/** A store URL fit for logs and errors: the password replaced by ***. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}
