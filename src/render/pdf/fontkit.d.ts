/** The part of fontkit (a dependency of pdfmake's pdfkit) Chronicle uses: which characters a font has. */
declare module 'fontkit' {
  interface Font {
    postscriptName: string;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  interface FontCollection {
    fonts: Font[];
  }
  export function openSync(path: string): Font | FontCollection;
}
