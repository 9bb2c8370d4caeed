// Shares the night's picture through the phone's share sheet (the Web Share API, with the PNG as
// a file, never a link). Where the browser cannot share files the button stays hidden and the
// download links do the job; where sharing fails for another reason, the picture is downloaded.
(() => {
  const button = document.querySelector("[data-share-picture]");
  if (!button || !navigator.canShare) return;
  const theme = () => (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  button.hidden = false;
  button.addEventListener("click", async () => {
    const chosen = theme();
    const download = document.querySelector(`[data-download="${chosen}"]`);
    try {
      const answer = await fetch(`${button.dataset.sharePicture}?theme=${chosen}`);
      if (!answer.ok) throw new Error(`the picture could not be made (${answer.status})`);
      const blob = await answer.blob();
      const file = new File([blob], button.dataset.fileName, { type: "image/png" });
      if (!navigator.canShare({ files: [file] })) {
        download.click();
        return;
      }
      await navigator.share({ files: [file], title: button.dataset.title });
    } catch (error) {
      if (error.name !== "AbortError") download.click();
    }
  });
})();
