/** A positioned run of text, cut and measured as pdf.js's getTextContent reports it. */
export interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/** Rebuilds a page's reading text from its positioned text items. */
export function layoutText(items: TextItem[]): string;
