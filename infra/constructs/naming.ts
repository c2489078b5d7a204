/** Names every function shares (logs, metrics), and the text CloudFormation takes: a leaf both stacks and constructs read. */
export const POWERTOOLS_SERVICE_NAME = 'workplace';
export const METRICS_NAMESPACE = 'Workplace';

/** Text CloudFormation accepts in descriptions (Latin-1), typographic quotes and dashes made plain. */
export function cfnText(text: string, max: number): string {
  const plain = text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\u2192/g, '->')
    .replace(/[^\t\n\r\x20-\x7E\u00A1-\u00FF]/g, '?');
  return plain.length > max ? `${plain.slice(0, max - 3)}...` : plain;
}
