// Shares the night's picture through the phone's share sheet (the Web Share API, with the PNG as
// a file). Where the browser cannot share files the button stays hidden and the download links
// do the job; where sharing fails for another reason, the picture is downloaded.
// The night's link, once a member made one: shared through the share sheet as a link, or copied;
// each button shown only where the browser can do it (the link's field is there to copy by hand).
(() => {
  const said = document.querySelector("[data-link-said]");
  const shareLink = document.querySelector("[data-share-link]");
  if (shareLink && navigator.share) {
    shareLink.hidden = false;
    shareLink.addEventListener("click", async () => {
      try {
        await navigator.share({ url: shareLink.dataset.shareLink, title: shareLink.dataset.title });
      } catch (error) {
        if (error.name !== "AbortError") said.textContent = "The link could not be shared: copy it from its field.";
      }
    });
  }
  const copyLink = document.querySelector("[data-copy-link]");
  if (copyLink && navigator.clipboard?.writeText) {
    copyLink.hidden = false;
    copyLink.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(copyLink.dataset.copyLink);
        said.textContent = "The link is copied.";
      } catch {
        said.textContent = "The link could not be copied: copy it from its field.";
      }
    });
  }
  document.querySelector("[data-link-field]")?.addEventListener("focus", (event) => event.target.select());

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
