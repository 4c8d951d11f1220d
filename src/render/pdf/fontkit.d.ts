/** The part of fontkit (a dependency of pdfmake's pdfkit) Chronicle uses: which characters a font has, and how wide they are. */
declare module 'fontkit' {
  interface Glyph {
    /** In font units. */
    advanceWidth: number;
  }
  interface Font {
    postscriptName: string;
    unitsPerEm: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
  }
  interface FontCollection {
    fonts: Font[];
  }
  export function openSync(path: string): Font | FontCollection;
}
