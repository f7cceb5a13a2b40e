/** Why a file cannot be read: a sentence for the caller's 400, said of the file ("its sheet XML declares a DTD"). */
export class FormatProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatProblem';
  }
}
