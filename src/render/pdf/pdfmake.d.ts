// pdfmake's Node entry (a singleton), only what Chronicle calls; pdf-doc.ts types what it is given.
declare module 'pdfmake' {
  interface FontFiles {
    normal: string;
    bold: string;
    italics: string;
    bolditalics: string;
  }
  interface PdfMake {
    setFonts(fonts: Record<string, FontFiles>): void;
    setUrlAccessPolicy(allow: (url: string) => boolean): void;
    setLocalAccessPolicy(allow: (path: string) => boolean): void;
    createPdf(docDefinition: object): { getBuffer(): Promise<Buffer> };
  }
  const pdfMake: PdfMake;
  export default pdfMake;
}
