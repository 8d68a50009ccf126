// The part of mvdan-sh (mvdan/sh's parser compiled to JavaScript) that parse-shell.ts uses.
// Nodes are Go structs: their fields are read by name, their type is `syntax.NodeType(node)`.
declare module 'mvdan-sh' {
  /** Any syntax node; its fields depend on its type. */
  export interface ShNode {
    readonly [field: string]: unknown;
  }
  export interface ShParser {
    Parse(text: string, name: string): ShNode;
  }
  export type ShParserOption = (parser: ShParser) => void;
  export interface ShSyntax {
    readonly LangBash: number;
    NewParser(...options: ShParserOption[]): ShParser;
    Variant(lang: number): ShParserOption;
    NodeType(node: ShNode): string;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
    SplitBraces(word: ShNode): ShNode;
  }
  const sh: { syntax: ShSyntax };
  export default sh;
}
